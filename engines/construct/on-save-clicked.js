// The script action of an "On clicked" event of a save button: keeps the player's progress on your
// site. The page adds the game token (after a login with 'renew' in its options); the game never
// holds it. Construct runs a script action as an async function: it may await. Every name in quotes,
// which "Minify script: Advanced" leaves as it is.
const answer = await ItchLogin.fetch('https://mygame.example/api/progress', {
  'method': 'PUT',
  'headers': { 'Content-Type': 'application/json' },
  'body': JSON.stringify({ 'stars': runtime['globalVars']['Stars'] }),
});
runtime['globalVars']['Saved'] = answer['status'] === 204;
