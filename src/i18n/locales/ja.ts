// 日本語。です・ます調。用語集: ../README.md。
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'itch.io でログイン',
  cancel: 'キャンセル',
  continue: 'itch.io で続ける',
  dismiss: 'キャンセル',
  idle: '進行中の itch.io ログインはありません。',
  pending: 'itch.io でログインしています…',
  success: 'itch.io でログインしました。',
  retry: 'もう一度試す',
  close: '閉じる',
  store: 'itch.io で入手',
  code: 'itch.io ログイン：ウィンドウにコード {code} が表示されている場合のみ承認してください。',
  access_denied: 'itch.io でログインを拒否しました。',
  state_missing: 'このログインはこのサイトで開始されたものではないため、完了しませんでした。',
  state_mismatch: 'このログインはここで開始されたものではないか、すでに使用されています。',
  state_expired: 'ログインに 10 分以上かかりました。',
  invalid_response: 'itch.io から読み取れない応答が返されました。',
  backend_rejected: 'このサイトのサーバーがログインを拒否しました。',
  network_error: 'このサイトのサーバーに接続できませんでした。',
  popup_blocked: 'itch.io のウィンドウがブラウザーによってブロックされました。',
  popup_closed: 'ログインが完了する前に itch.io のウィンドウが閉じられました。',
  config_invalid: 'このサイトでは itch.io でのログインが正しく設定されていません。',
  timeout: 'itch.io から時間内に応答がありませんでした。もう一度ログインしてください。',
  not_owner: '続けるには、itch.io でこのゲームを所有している必要があります。',
  popup_unverified: 'itch.io のウィンドウを開いたページと結び付けられなかったため、安全のためログインを中止しました。',
  aborted: 'ログインはキャンセルされました。',
  service_unavailable: 'このサイトのサーバーまたは itch.io が現在応答していません。1 分後にもう一度お試しください。',
  cookies_blocked:
    'ブラウザがこのログインに必要な Cookie をブロックしています。ブラウザのプライバシー設定 (Cookie とサイトデータ) でこのサイトの Cookie を許可してから、もう一度お試しください。',
  next_not_owner: 'itch.io でゲームを入手するか、itch.io からログアウトしてゲームを所有しているアカウントを使ってください。',
  next_backend_rejected: '別の itch.io アカウントを使うには、先に itch.io からログアウトしてください。',
  next_network_error: '数分後にもう一度お試しください。',
  back: 'サイトに戻る',
  state_used:
    'このログインリンクは、ログインを始めたタブで一度だけ使えるため、ここでは何も行われていません。そのタブでログインを完了していれば、すでにログイン済みです。',
};
