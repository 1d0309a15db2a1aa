export { captureCallback, type CaptureOptions } from './capture.js';
