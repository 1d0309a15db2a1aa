// The JavaScript half of ItchLogin for Unity WebGL: an Emscripten JavaScript library
// (https://docs.unity3d.com/Manual/web-interacting-browser-js-to-unity.html). The page must load
// itch-oauth.iife.js and itch-oauth-bridge.iife.js (a WebGL template, see engines/unity/README.md).
// Emscripten copies each function's text into the build, so a function uses only its arguments,
// Emscripten's helpers (UTF8ToString, lengthBytesUTF8, _malloc, stringToUTF8), Unity's SendMessage,
// and globals: never a variable of this file.
mergeInto(LibraryManager.library, {
  // Starts a login with the options JSON; the outcome goes to the GameObject named gameObject:
  // OnItchLoginSuccess("<id>\n<response JSON>") or OnItchLoginError('{"id","code","message","playerMessage"}').
  // Returns the login's id (a string Unity's marshalling frees).
  ItchLogin_Login: function (optionsJson, gameObject) {
    var options = UTF8ToString(optionsJson);
    var target = UTF8ToString(gameObject);
    // JsonUtility writes every field, an unset one as "": the bridge takes only the ones set
    // (an empty baseUrl would be taken as an address). Text that is not JSON goes on as it is, and
    // the bridge answers config_invalid.
    try {
      var parsed = JSON.parse(options);
      for (var key in parsed) if (parsed[key] === '') delete parsed[key];
      options = JSON.stringify(parsed);
    } catch (error) {}
    var relay = (window.ItchLoginUnity = window.ItchLoginUnity || {
      targets: {},
      settled: function (resultJson) {
        var result = JSON.parse(resultJson);
        var name = relay.targets[result.id];
        delete relay.targets[result.id];
        if (result.ok)
          SendMessage(
            name,
            'OnItchLoginSuccess',
            result.id + '\n' + JSON.stringify(result.response === undefined ? null : result.response),
          );
        else
          SendMessage(
            name,
            'OnItchLoginError',
            JSON.stringify({ id: result.id, code: result.code, message: result.message, playerMessage: result.playerMessage || '' }),
          );
      },
    });
    // The bridge calls ItchLoginUnity.settled only after it returned: the target is known by then.
    var id = ItchOAuth.bridge.login(options, 'ItchLoginUnity.settled');
    relay.targets[id] = target;
    var size = lengthBytesUTF8(id) + 1;
    var buffer = _malloc(size);
    stringToUTF8(id, buffer, size);
    return buffer;
  },
  // Its signature (https://emscripten.org/docs/porting/connecting_cpp_and_javascript/Interacting-with-code.html):
  // p a pointer (a char*), i an int. With it, Emscripten's 64-bit builds (Unity 6.6's WebAssembly
  // 64) hand the function pointers as numbers.
  ItchLogin_Login__sig: 'ppp',

  // Asks the page, without a click, for the login it kept across a reload (the options carry
  // renew; the page renews it with the site first). The answer goes to the GameObject named
  // gameObject as a login's does: OnItchLoginSuccess("<id>\n<{"user","owns"} JSON, or null when
  // none was kept>") or OnItchLoginError('{"id","code","message"}'). Returns the call's id (a string
  // Unity's marshalling frees).
  ItchLogin_Restore: function (optionsJson, gameObject) {
    var options = UTF8ToString(optionsJson);
    var target = UTF8ToString(gameObject);
    // As for a login: the fields JsonUtility left "" are left out.
    try {
      var parsed = JSON.parse(options);
      for (var key in parsed) if (parsed[key] === '') delete parsed[key];
      options = JSON.stringify(parsed);
    } catch (error) {}
    var restores = (window.ItchLoginUnityRestore = window.ItchLoginUnityRestore || {
      targets: {},
      settled: function (resultJson) {
        var result = JSON.parse(resultJson);
        var name = restores.targets[result.id];
        delete restores.targets[result.id];
        if (result.ok) SendMessage(name, 'OnItchLoginSuccess', result.id + '\n' + JSON.stringify(result.response));
        else SendMessage(name, 'OnItchLoginError', JSON.stringify({ id: result.id, code: result.code, message: result.message }));
      },
    });
    // The bridge calls ItchLoginUnityRestore.settled only after it returned: the target is known by then.
    var id = ItchOAuth.bridge.restore(options, 'ItchLoginUnityRestore.settled');
    restores.targets[id] = target;
    var size = lengthBytesUTF8(id) + 1;
    var buffer = _malloc(size);
    stringToUTF8(id, buffer, size);
    return buffer;
  },
  ItchLogin_Restore__sig: 'ppp',

  // Calls the site's API through the page's game session (after a login with renew): the bridge
  // adds the game token, which C# never holds. body, when not empty, is sent as application/json.
  // The answer goes to the GameObject named gameObject: OnItchFetchAnswer("<id>\n<status>\n<body>"),
  // status 0 when no answer came. Returns the call's id (a string Unity's marshalling frees).
  ItchLogin_Fetch: function (url, method, body, gameObject) {
    var target = UTF8ToString(gameObject);
    var text = UTF8ToString(body);
    var init = { method: UTF8ToString(method) || 'GET' };
    if (text) {
      init.headers = { 'Content-Type': 'application/json' };
      init.body = text;
    }
    var fetches = (window.ItchLoginUnityFetch = window.ItchLoginUnityFetch || {
      targets: {},
      settled: function (resultJson) {
        var result = JSON.parse(resultJson);
        var name = fetches.targets[result.id];
        delete fetches.targets[result.id];
        var answer = result.ok ? result.response : { status: 0, body: '' };
        SendMessage(name, 'OnItchFetchAnswer', result.id + '\n' + answer.status + '\n' + answer.body);
      },
    });
    // The bridge calls ItchLoginUnityFetch.settled only after it returned: the target is known by then.
    var id = ItchOAuth.bridge.fetch(UTF8ToString(url), JSON.stringify(init), 'ItchLoginUnityFetch.settled');
    fetches.targets[id] = target;
    var size = lengthBytesUTF8(id) + 1;
    var buffer = _malloc(size);
    stringToUTF8(id, buffer, size);
    return buffer;
  },
  ItchLogin_Fetch__sig: 'ppppp',

  // Cancels a login: OnItchLoginError receives "aborted". Returns 1 when a login had that id.
  ItchLogin_Cancel: function (id) {
    return ItchOAuth.bridge.cancel(UTF8ToString(id)) ? 1 : 0;
  },
  ItchLogin_Cancel__sig: 'ip',
});
