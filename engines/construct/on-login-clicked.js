// The script action of an "On clicked" (or "On touched") event of the login button: a click, as
// the popup needs the player's activation. ItchLogin is imported in importsForEvents.js. The
// option names are strings, which "Minify script: Advanced" leaves as they are.
ItchLogin.login(runtime, {
  'clientId': 'YOUR_CLIENT_ID',
  'redirectUri': 'https://mygame.example/callback.html',
  'backend': 'https://mygame.example/auth/itch',
  'renew': 'https://mygame.example/api/renew', // the page keeps the game token: ItchLogin.fetch sends it
  'mode': 'popup',
});
