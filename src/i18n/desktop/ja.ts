// 日本語。です・ます調。用語集: ../README.md。
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'itch.io ログイン',
  finishing: 'itch.io ログインを完了しています…',
  nothing_title: 'ここで完了するものはありません',
  nothing: 'このアドレスには itch.io からの応答が含まれていません。このタブは閉じてかまいません。',
  stopped_title: 'アプリケーションは待機を終了しました',
  stopped: 'このログインはもう待機されていません。アプリケーションからログインをやり直してください。このタブは閉じてかまいません。',
  done_title: 'ログインしました',
  done: 'このタブを閉じて、アプリケーションに戻ってください。',
  cancelled_title: 'ログインはキャンセルされました',
  failed_title: 'ログインは完了しませんでした',
  told: 'アプリケーションに通知しました。このタブは閉じてかまいません。',
  close: 'このタブは閉じてかまいません。',
};
