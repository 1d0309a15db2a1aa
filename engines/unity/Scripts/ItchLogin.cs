// Log in with itch.io from a Unity WebGL build, through Plugins/WebGL/ItchLogin.jslib.
// Put this component on one GameObject of the first scene (it keeps it across scenes), fill in
// its fields, then call ItchLogin.Login(onSuccess, onError) from a click or key handler: the
// popup needs the player's activation. With its renew field set, the page keeps the game token
// and ItchLogin.Fetch calls your site's API with it: the game never holds it; and at start
// ItchLogin.Restore finds a login kept across a reload, without a click. The answers come back
// through SendMessage (https://docs.unity3d.com/Manual/web-interacting-browser-unity-to-js.html),
// which can call only a method of a GameObject with one string: hence OnItchLoginSuccess,
// OnItchLoginError and OnItchFetchAnswer below.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using UnityEngine;
using UnityEngine.Scripting;

public class ItchLogin : MonoBehaviour
{
    [Tooltip("Client ID of your itch.io OAuth application")]
    public string clientId = "";
    [Tooltip("The redirect URI registered for it: your callback page, with the capture")]
    public string redirectUri = "";
    [Tooltip("Your token endpoint (createTokenHandler), e.g. https://mygame.example/auth/itch")]
    public string backend = "";
    [Tooltip("Space-separated itch.io scopes")]
    public string scope = "profile:me";
    [Tooltip("Where itch.io lives (the emulator's address in tests); empty: https://itch.io")]
    public string baseUrl = "";
    [Tooltip("Your site's sessions.renew URL, e.g. https://mygame.example/api/renew: the page then keeps the game token, and Fetch sends it. Empty: the answer carries the game token")]
    public string renew = "";

#if UNITY_WEBGL && !UNITY_EDITOR
    private static readonly bool inWebGLBuild = true;

    [DllImport("__Internal")]
    private static extern string ItchLogin_Login(string optionsJson, string gameObject);

    [DllImport("__Internal")]
    private static extern int ItchLogin_Cancel(string id);

    [DllImport("__Internal")]
    private static extern string ItchLogin_Fetch(string url, string method, string body, string gameObject);

    [DllImport("__Internal")]
    private static extern string ItchLogin_Restore(string optionsJson, string gameObject);
#else
    // In the editor and other builds Login answers config_invalid through onError, and Restore
    // null: nothing is thrown out of the player's click or the game's start.
    private static readonly bool inWebGLBuild = false;

    private static string ItchLogin_Login(string optionsJson, string gameObject)
    {
        return "";
    }

    private static int ItchLogin_Cancel(string id)
    {
        return 0;
    }

    private static string ItchLogin_Fetch(string url, string method, string body, string gameObject)
    {
        return "";
    }

    private static string ItchLogin_Restore(string optionsJson, string gameObject)
    {
        return "";
    }
#endif

    private static ItchLogin instance;

    // The callers of the logins under way, by the login's id.
    private readonly Dictionary<string, KeyValuePair<Action<string>, Action<string, string, string>>> waiting =
        new Dictionary<string, KeyValuePair<Action<string>, Action<string, string, string>>>();

    // The callers of the fetches under way, by the call's id.
    private readonly Dictionary<string, Action<int, string>> fetching = new Dictionary<string, Action<int, string>>();

    // [Preserve]: Unity's code stripping keeps what it sees used
    // (https://docs.unity3d.com/Manual/managed-code-stripping-preserving.html); these are reached
    // only by JsonUtility and, for the two On… methods, by name through SendMessage.
    [Serializable, Preserve]
    private class Options
    {
        public string clientId;
        public string redirectUri;
        public string backend;
        public string scope;
        public string mode;
        public string baseUrl;
        public string renew;
    }

    // Filled in by JsonUtility.FromJson, which the compiler does not see.
#pragma warning disable 0649
    [Serializable, Preserve]
    private class Failure
    {
        public string id;
        public string code;
        public string message;
        public string playerMessage;
    }
#pragma warning restore 0649

    private void Awake()
    {
        instance = this;
        DontDestroyOnLoad(gameObject);
    }

    /// <summary>
    /// Starts a login. onSuccess receives your token endpoint's JSON answer (e.g.
    /// {"user":{...},"owns":{...},"gameToken":"..."}); onError receives an error code
    /// (popup_closed, popup_blocked, not_owner, aborted, config_invalid, service_unavailable,
    /// cookies_blocked, ...) and a message for you. Returns the login's id, for Cancel.
    /// </summary>
    public static string Login(Action<string> onSuccess, Action<string, string> onError)
    {
        return Login(onSuccess, (code, message, playerMessage) => onError(code, message));
    }

    /// <summary>
    /// Starts a login, as above; onError also receives the player's sentence for the code, in the
    /// page's language (empty when the page has no words for it, as outside WebGL): show that
    /// rather than the code.
    /// </summary>
    public static string Login(Action<string> onSuccess, Action<string, string, string> onError)
    {
        if (!inWebGLBuild)
        {
            onError("config_invalid", "ItchLogin works in a WebGL build only", "");
            return "";
        }
        if (instance == null)
        {
            onError("config_invalid", "no ItchLogin component in the scene", "");
            return "";
        }
        return instance.Begin(onSuccess, onError);
    }

    /// <summary>
    /// Asks the page, without a click, whether the player is still signed in: after a reload, the
    /// login kept with the renew field set (in the frame's sessionStorage) is taken back and
    /// renewed with your site. Call it at the game's start (in a Start method: every Awake has run).
    /// onRestored receives {"user":{...},"owns":{...}} (a login's answer, without a game token), or
    /// null when no login was kept or the site refused it: show your login button. Null too
    /// outside a WebGL build, and after a failure, which is logged as a warning (config_invalid
    /// without renew). Returns the call's id, or "" (then onRestored has had null).
    /// </summary>
    public static string Restore(Action<string> onRestored)
    {
        if (!inWebGLBuild || instance == null)
        {
            if (inWebGLBuild) Debug.LogWarning("ItchLogin.Restore: no ItchLogin component in the scene");
            onRestored(null);
            return "";
        }
        string id = ItchLogin_Restore(instance.OptionsJson(), instance.gameObject.name);
        // The jslib answers as for a login: OnItchLoginSuccess with the JSON (null: none kept), or OnItchLoginError.
        instance.waiting[id] = new KeyValuePair<Action<string>, Action<string, string, string>>(
            response => onRestored(response == "null" ? null : response),
            (code, message, playerMessage) =>
            {
                Debug.LogWarning("ItchLogin.Restore: " + code + ": " + message);
                onRestored(null);
            });
        return id;
    }

    /// <summary>Cancels a login: onError receives "aborted".</summary>
    public static bool Cancel(string id)
    {
        return ItchLogin_Cancel(id) == 1;
    }

    /// <summary>
    /// Calls your site's API (a full URL, e.g. https://mygame.example/api/progress) after a login
    /// with the renew field set: the page adds the game token for your token endpoint's origin
    /// only, and renews it when needed; the game never holds it. method is "GET", "PUT", "POST"…;
    /// jsonBody, when not null or empty, is sent as application/json. onAnswer receives the HTTP
    /// status and the answer's text; the status is 0 when no answer came (as UnityWebRequest's
    /// responseCode). Returns the call's id, or "" when it could not start (onAnswer has had 0).
    /// </summary>
    public static string Fetch(string url, string method, string jsonBody, Action<int, string> onAnswer)
    {
        if (!inWebGLBuild || instance == null)
        {
            onAnswer(0, "");
            return "";
        }
        string id = ItchLogin_Fetch(url, method, jsonBody ?? "", instance.gameObject.name);
        instance.fetching[id] = onAnswer;
        return id;
    }

    // (Not named Start: Unity calls a method of that name when the component starts.)
    private string Begin(Action<string> onSuccess, Action<string, string, string> onError)
    {
        // The jslib answers only after this returns (the bridge settles later): the id is known by then.
        string id = ItchLogin_Login(OptionsJson(), gameObject.name);
        waiting[id] = new KeyValuePair<Action<string>, Action<string, string, string>>(onSuccess, onError);
        return id;
    }

    // login()'s options, from the fields, as JSON.
    private string OptionsJson()
    {
        var options = new Options
        {
            clientId = clientId,
            redirectUri = redirectUri,
            backend = backend,
            scope = scope,
            mode = "popup",
            baseUrl = baseUrl,
            renew = renew,
        };
        // (JsonUtility writes an unset field as ""; ItchLogin.jslib leaves those out.)
        return JsonUtility.ToJson(options);
    }

    // Called by ItchLogin.jslib through SendMessage, with the login's id, a line break, and your
    // token endpoint's JSON answer (SendMessage passes one string).
    [Preserve]
    private void OnItchLoginSuccess(string idAndResponse)
    {
        int newline = idAndResponse.IndexOf('\n');
        if (newline < 0) return;
        KeyValuePair<Action<string>, Action<string, string, string>> callbacks;
        if (!Take(idAndResponse.Substring(0, newline), out callbacks)) return;
        callbacks.Key(idAndResponse.Substring(newline + 1));
    }

    // Called by ItchLogin.jslib through SendMessage, with {"id":"…","code":"…","message":"…","playerMessage":"…"}.
    [Preserve]
    private void OnItchLoginError(string failureJson)
    {
        Failure failure = JsonUtility.FromJson<Failure>(failureJson);
        KeyValuePair<Action<string>, Action<string, string, string>> callbacks;
        if (failure == null || !Take(failure.id, out callbacks)) return;
        callbacks.Value(failure.code, failure.message, failure.playerMessage ?? "");
    }

    // Called by ItchLogin.jslib through SendMessage, with the call's id, its status and the answer's
    // text, each after a line break (SendMessage passes one string).
    [Preserve]
    private void OnItchFetchAnswer(string idStatusBody)
    {
        string[] parts = idStatusBody.Split(new[] { '\n' }, 3);
        Action<int, string> onAnswer;
        if (parts.Length < 3 || !fetching.TryGetValue(parts[0], out onAnswer)) return;
        fetching.Remove(parts[0]);
        int status;
        onAnswer(int.TryParse(parts[1], out status) ? status : 0, parts[2]);
    }

    private bool Take(string id, out KeyValuePair<Action<string>, Action<string, string, string>> callbacks)
    {
        if (id == null || !waiting.TryGetValue(id, out callbacks))
        {
            callbacks = default(KeyValuePair<Action<string>, Action<string, string, string>>);
            return false;
        }
        waiting.Remove(id);
        return true;
    }
}
