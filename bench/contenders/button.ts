// The login button as an app's bundler sees it: the one import and the define.
import { ItchLoginButton } from 'itch-oauth-widget';

customElements.define('itch-login-button', ItchLoginButton);
