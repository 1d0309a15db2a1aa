// The classic-script entry of the capture, configured by data-* attributes on its own tag:
//   <script src="itch-oauth-capture.iife.js" data-backend="/auth/itch"></script>
// (A classic script always has a currentScript while it first runs.)
import { captureCallback } from './capture.js';

const { dataset } = document.currentScript as HTMLScriptElement;
captureCallback({ backend: dataset['backend'], noRedirect: 'noRedirect' in dataset });
