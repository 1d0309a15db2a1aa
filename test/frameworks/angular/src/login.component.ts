import { CUSTOM_ELEMENTS_SCHEMA, Component, input, signal } from '@angular/core';
import 'itch-oauth-widget/define';

@Component({
  selector: 'app-login',
  // <itch-…> are custom elements; their events are typed through HTMLElementEventMap.
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <h1>Angular game</h1>
    <itch-login-button
      [attr.client-id]="clientId()"
      [attr.redirect-uri]="redirectUri"
      [attr.base-url]="itchUrl()"
      scope="profile:me"
      mode="redirect"
      (itch-login-start)="log('going to ' + $event.detail.url)"
      (itch-login-error)="error.set($event.detail.code + ': ' + $event.detail.message)"
    >
      Log in with itch.io
    </itch-login-button>
    @if (error()) {
      <p role="alert">{{ error() }}</p>
    }
  `,
})
export class LoginComponent {
  readonly clientId = input.required<string>();
  readonly itchUrl = input('https://itch.io');
  readonly redirectUri = `${location.origin}/callback.html`;
  readonly error = signal('');
  log(message: string): void {
    console.log(message);
  }
}
