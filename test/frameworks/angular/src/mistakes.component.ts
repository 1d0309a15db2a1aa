// Mistakes the types must reject. Angular templates have no expect-error comment, so
// scripts/test-frameworks.mjs requires an error on the line after each "expect-error" and no other.
// (With CUSTOM_ELEMENTS_SCHEMA Angular checks no attribute or property of a custom element, so an
// unknown attribute or a wrong `mode` cannot be caught here; the events are typed.) In the class,
// TypeScript's own expect-error comments work as usual.
import { CUSTOM_ELEMENTS_SCHEMA, Component } from '@angular/core';
import { login } from 'itch-oauth-widget';

@Component({
  selector: 'app-mistakes',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <!-- expect-error: the success detail has response, never the token -->
    <itch-oauth-callback (itch-login-success)="use($event.detail.access_token)"></itch-oauth-callback>
    <!-- expect-error: the error detail has code and message, not reason -->
    <itch-oauth-callback (itch-login-error)="use($event.detail.reason)"></itch-oauth-callback>
    <!-- expect-error: the start event is not a success event -->
    <itch-login-button (itch-login-start)="useSuccess($event)"></itch-login-button>
  `,
})
export class MistakesComponent {
  use(_value: unknown): void {}
  useSuccess(_event: CustomEvent<{ response: unknown }>): void {}
  async loginMistakes(clientId: string): Promise<unknown> {
    // @ts-expect-error: `mode` is `redirect` or `popup`
    await login({ clientId, redirectUri: '/callback.html', backend: '/auth/itch', mode: 'tab' });
    const result = await login({ clientId, redirectUri: '/callback.html', backend: '/auth/itch', mode: 'popup' });
    // @ts-expect-error: a login gives the backend's `response`, never the token
    return result.token;
  }
}
