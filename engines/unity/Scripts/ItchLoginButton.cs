// A "Log in with itch.io" button: put it on a UI Button's GameObject and call OnClick from the
// Button's On Click () list. The ItchLogin component must be in the scene.
using UnityEngine;

public class ItchLoginButton : MonoBehaviour
{
    public void OnClick()
    {
        ItchLogin.Login(
            response => Debug.Log("Logged in: " + response),
            // playerMessage: what to tell the player, in the page's language; code and message: for you.
            (code, message, playerMessage) => Debug.Log("Login failed: " + code + " " + message + " / " + playerMessage));
    }
}
