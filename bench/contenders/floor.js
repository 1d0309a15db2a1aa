// The floor: a hand-written minimal implicit-flow callback. It reads the token from the fragment,
// clears the address and POSTs the token, with no state check, no retry and no protection from
// the page's other scripts. Anything less would not log anyone in.
var token = new URLSearchParams(location.hash.slice(1)).get('access_token');
if (token) {
  history.replaceState(null, '', location.pathname + location.search);
  fetch('/auth/itch', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ access_token: token }),
  }).then(function () {
    location.replace('/done.html');
  });
}
