export { captureCallback, RETRY_DELAYS_MS, type CaptureOptions } from './capture.js';
