// Log in with itch.io from a Unity WebGL build, through Plugins/WebGL/ItchLogin.jslib.
// Put this component on one GameObject of the first scene (it keeps it across scenes), fill in
// its fields, then call ItchLogin.Login(onSuccess, onError) from a click or key handler: the
// popup needs the player's activation. The answer comes back through SendMessage
// (https://docs.unity3d.com/Manual/web-interacting-browser-unity-to-js.html), which can call only
// a method of a GameObject with one string: hence OnItchLoginSuccess and OnItchLoginError below.
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

#if UNITY_WEBGL && !UNITY_EDITOR
    private static readonly bool inWebGLBuild = true;

    [DllImport("__Internal")]
    private static extern string ItchLogin_Login(string optionsJson, string gameObject);

    [DllImport("__Internal")]
    private static extern int ItchLogin_Cancel(string id);
#else
    // In the editor and other builds Login answers config_invalid through onError: nothing is
    // thrown out of the player's click.
    private static readonly bool inWebGLBuild = false;

    private static string ItchLogin_Login(string optionsJson, string gameObject)
    {
        return "";
    }

    private static int ItchLogin_Cancel(string id)
    {
        return 0;
    }
#endif

    private static ItchLogin instance;

    // The callers of the logins under way, by the login's id.
    private readonly Dictionary<string, KeyValuePair<Action<string>, Action<string, string, string>>> waiting =
        new Dictionary<string, KeyValuePair<Action<string>, Action<string, string, string>>>();

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

    /// <summary>Cancels a login: onError receives "aborted".</summary>
    public static bool Cancel(string id)
    {
        return ItchLogin_Cancel(id) == 1;
    }

    // (Not named Start: Unity calls a method of that name when the component starts.)
    private string Begin(Action<string> onSuccess, Action<string, string, string> onError)
    {
        var options = new Options
        {
            clientId = clientId,
            redirectUri = redirectUri,
            backend = backend,
            scope = scope,
            mode = "popup",
            baseUrl = baseUrl,
        };
        // (JsonUtility writes an unset field as ""; ItchLogin.jslib leaves those out.)
        string json = JsonUtility.ToJson(options);
        // The jslib answers only after this returns (the bridge settles later): the id is known by then.
        string id = ItchLogin_Login(json, gameObject.name);
        waiting[id] = new KeyValuePair<Action<string>, Action<string, string, string>>(onSuccess, onError);
        return id;
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
