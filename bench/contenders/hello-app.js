// hellojs on the game's page: the itch.io network, a login in page mode (the implicit flow),
// and, back from the callback, the token sent to the app's backend once.
import hello from 'hellojs/dist/hello.js';

hello.init(
  {
    itch: {
      id: 'bench-client',
      name: 'itch',
      oauth: { version: 2, auth: location.origin + '/user/oauth' },
      scope: { basic: 'profile:me' },
      scope_delim: ' ',
    },
  },
  { redirect_uri: location.origin + '/cb-hello.html', display: 'page' },
);

var session = hello('itch').getAuthResponse();
if (session && session.access_token && !sessionStorage.getItem('bench-sent')) {
  sessionStorage.setItem('bench-sent', '1');
  fetch('/auth/itch', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ access_token: session.access_token }),
  }).then(function () {
    location.replace('/done.html');
  });
}

window.benchLogin = function () {
  hello('itch').login({ display: 'page', page_uri: location.origin + '/hello-game.html' });
};
