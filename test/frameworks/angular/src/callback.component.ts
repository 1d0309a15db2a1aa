import { CUSTOM_ELEMENTS_SCHEMA, Component, signal } from '@angular/core';
import type { ItchLoginSuccessDetail, LoginAnswer } from 'itch-oauth-widget';
import 'itch-oauth-widget/define';

@Component({
  selector: 'app-callback',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <itch-oauth-callback
      no-redirect
      (itch-login-success)="onSuccess($event)"
      (itch-login-error)="error.set($event.detail.code + ': ' + $event.detail.message)"
    ></itch-oauth-callback>
    @if (user()) {
      <p>Signed in as {{ user() }}</p>
    }
    @if (error()) {
      <p role="alert">{{ error() }}</p>
    }
  `,
})
export class CallbackComponent {
  readonly user = signal('');
  readonly error = signal('');
  onSuccess(event: CustomEvent<ItchLoginSuccessDetail>): void {
    this.user.set((event.detail.response as LoginAnswer).user.username);
  }
}
