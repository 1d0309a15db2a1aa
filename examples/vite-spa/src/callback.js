// After the capture: <itch-oauth-callback> shows a failure and its "Try again"; on success the
// capture has already gone back to the page the login started from.
import 'itch-oauth-widget/define';
