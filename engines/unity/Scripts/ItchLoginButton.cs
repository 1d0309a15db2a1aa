// A "Log in with itch.io" button: put it on a UI Button's GameObject and call OnClick from the
// Button's On Click () list. The ItchLogin component must be in the scene.
using UnityEngine;

public class ItchLoginButton : MonoBehaviour
{
    public void OnClick()
    {
        ItchLogin.Login(
            response => Debug.Log("Logged in: " + response),
            (code, message) => Debug.Log("Login failed: " + code + " " + message));
    }
}
