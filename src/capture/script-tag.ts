// The classic-script entry of the capture, configured by data-* attributes on its own tag:
//   <script src="itch-oauth-capture.iife.js" data-backend="/auth/itch"></script>
// Its own tag is the one the browser runs, asked of Document.prototype's getter (see
// currentScript): `document.currentScript` answers with any element of the page named
// `currentScript`, whose data-backend would receive the token.
import { captureCallback, currentScript } from './capture.js';

const script = currentScript();
// data-backend and data-pending as they are; data-no-redirect and data-cross-origin are boolean
// attributes. (Run any other way than by a <script> element of its own, it captures nothing.)
if (script) {
  const { dataset } = script;
  captureCallback({ ...dataset, noRedirect: 'noRedirect' in dataset, crossOrigin: 'crossOrigin' in dataset });
}
