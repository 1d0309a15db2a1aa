import { CUSTOM_ELEMENTS_SCHEMA, Component, input, signal } from '@angular/core';
import { ItchOAuthError, login, type ItchLoginSuccessDetail, type LoginAnswer } from 'itch-oauth-widget';
import 'itch-oauth-widget/define';

@Component({
  selector: 'app-login',
  // <itch-…> are custom elements; their events are typed through HTMLElementEventMap.
  // No `mode` on the button: redirect on a top-level page, popup (collected from `backend`) in a frame.
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <h1>Angular game</h1>
    <itch-login-button
      [attr.client-id]="clientId()"
      [attr.redirect-uri]="redirectUri"
      [attr.base-url]="itchUrl()"
      scope="profile:me"
      backend="/auth/itch"
      (itch-login-start)="log('going to ' + $event.detail.url)"
      (itch-login-success)="onSuccess($event)"
      (itch-login-error)="error.set($event.detail.code + ': ' + $event.detail.message)"
    >
      Log in with itch.io
    </itch-login-button>
    <button type="button" (click)="play()">Play</button>
    @if (user()) {
      <p>Signed in as {{ user() }}</p>
    }
    @if (error()) {
      <p role="alert">{{ error() }}</p>
    }
  `,
})
export class LoginComponent {
  readonly clientId = input.required<string>();
  readonly itchUrl = input('https://itch.io');
  readonly redirectUri = `${location.origin}/callback.html`;
  readonly user = signal('');
  readonly error = signal('');
  log(message: string): void {
    console.log(message);
  }
  onSuccess(event: CustomEvent<ItchLoginSuccessDetail>): void {
    this.user.set((event.detail.response as LoginAnswer).user.username);
  }
  /** The game's own button: login() opens the itch.io popup in the click and resolves with the backend's answer. */
  async play(): Promise<void> {
    try {
      const result = await login({ clientId: this.clientId(), redirectUri: this.redirectUri, baseUrl: this.itchUrl(), backend: '/auth/itch', mode: 'popup' });
      this.user.set((result.response as LoginAnswer).user.username);
    } catch (failure) {
      this.error.set(failure instanceof ItchOAuthError ? `${failure.code}: ${failure.message}` : String(failure));
    }
  }
}
