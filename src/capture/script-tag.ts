// The classic-script entry of the capture, configured by data-* attributes on its own tag:
//   <script src="itch-oauth-capture.iife.js" data-backend="/auth/itch"></script>
// (A classic script always has a currentScript while it first runs.)
import { captureCallback } from './capture.js';

const { dataset } = document.currentScript as HTMLScriptElement;
// data-backend and data-pending as they are; data-no-redirect is a boolean attribute.
captureCallback({ ...dataset, noRedirect: 'noRedirect' in dataset });
