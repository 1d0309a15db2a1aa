// The entry of dist/itch-oauth.iife.js, everything browser-side for a plain <script src>.
// First in <head> of a callback page (with data-backend) it performs the capture before
// anything else, exactly as the capture-only file does; then it registers both elements.
import './capture/script-tag.js';
import './define.js';
