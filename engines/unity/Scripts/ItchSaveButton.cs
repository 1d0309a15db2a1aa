// A "Save" button: put it on a UI Button's GameObject and call OnClick from the Button's On Click ()
// list. It keeps the player's progress on your site through ItchLogin.Fetch, which adds the game
// token (after a login with the ItchLogin component's renew field set): the game never holds it.
using UnityEngine;

public class ItchSaveButton : MonoBehaviour
{
    [Tooltip("Your site's API for the game's saves (sessions.route({ allow: ['game'] }) on your server)")]
    public string api = "https://mygame.example/api/progress";
    public int stars = 3;

    public void OnClick()
    {
        ItchLogin.Fetch(api, "PUT", "{\"stars\":" + stars + "}",
            (status, body) => Debug.Log(status == 204 ? "Saved" : "Not saved (" + status + ")"));
    }
}
