// The script action of the first layout's "On start of layout" event: asks the page, without a
// click, whether the player is still signed in (a login kept across a reload). Construct runs a
// script action as an async function: it may await. The options are the login's
// (on-login-clicked.js), every name in quotes, which "Minify script: Advanced" leaves as it is.
const player = await ItchLogin.restore({
  'clientId': 'YOUR_CLIENT_ID',
  'redirectUri': 'https://mygame.example/callback.html',
  'backend': 'https://mygame.example/auth/itch',
  'renew': 'https://mygame.example/api/renew',
  'mode': 'popup',
});
// null: no login kept; the event sheet shows the login button while SignedIn is false.
runtime['globalVars']['SignedIn'] = player !== null;
runtime['globalVars']['PlayerName'] = player === null ? '' : String(player['user']['display_name'] || player['user']['username']);
