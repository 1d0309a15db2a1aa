// A "Log in with itch.io" button: put it on a UI Button's GameObject and call OnClick from the
// Button's On Click () list. The ItchLogin component must be in the scene. At start it asks
// whether the player is still signed in (a login kept across a reload): then the button hides;
// else it stays for the click.
using UnityEngine;

public class ItchLoginButton : MonoBehaviour
{
    private void Start()
    {
        ItchLogin.Restore(response =>
        {
            if (response == null) return; // no login kept: the button stays
            Debug.Log("Still logged in: " + response);
            gameObject.SetActive(false);
        });
    }

    public void OnClick()
    {
        ItchLogin.Login(
            response => Debug.Log("Logged in: " + response),
            // playerMessage: what to tell the player, in the page's language; code and message: for you.
            (code, message, playerMessage) => Debug.Log("Login failed: " + code + " " + message + " / " + playerMessage));
    }
}
