// Türkçe. Hitap: «siz» (cümlelerde); düğmelerde kısa emir kipi («Tekrar dene»), platformlardaki gibi. Sözlük: ../README.md.
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: 'itch.io ile giriş yap',
  checking: 'Bu pencereyi açan oyun kontrol ediliyor…',
  leaving: 'itch.io açılıyor…',
  confirm: 'Bu pencere, onu açan oyunu göremiyor.',
  confirm_code:
    '{site} ({origin}) bu kodu onaylamanızı istiyor. Yalnızca {site} oyunu şu anda aynı kodu gösteriyorsa onaylayın. Bu kodu size başka bir site, oyun, mesaj veya kişi verdiyse "Göstermiyor" seçeneğini seçin: Onaylarsanız onlar sizin hesabınızla {site} sitesine giriş yapar.',
  code_label: 'kod {code}',
  yes: 'Oyun {code} gösteriyor',
  no: 'Göstermiyor',
  close: 'Kapat',
  popup_unverified:
    'Bu pencere onu açan oyunla ilişkilendirilemedi, bu yüzden güvenliğiniz için giriş burada duruyor. Bu pencereyi kapatın ve oyundan tekrar giriş yapın (tarayıcınız sorarsa açılır pencerelere izin verin).',
  state_mismatch: 'Bu pencereyi açan sayfanın bu siteye giriş yapmasına izin verilmiyor. Bu pencereyi kapatın.',
  refused: 'Bu giriş başlatılamadı. Bu pencereyi kapatın ve tekrar deneyin.',
  network: 'Siteye ulaşılamadı. Bu pencereyi kapatın ve tekrar deneyin.',
  silent: 'Bu pencereyi açan sayfa yanıt vermedi. Bu pencereyi kapatın ve oyundan tekrar giriş yapın.',
  unavailable: 'Site şu anda giriş yapmanızı sağlayamıyor. Bu pencereyi kapatın ve biraz sonra tekrar deneyin.',
  cookies_blocked:
    'Tarayıcınız bu girişin ihtiyaç duyduğu çerezleri engelliyor. Tarayıcınızın gizlilik ayarlarında (çerezler ve site verileri) bu site için çerezlere izin verin, ardından bu pencereyi kapatıp yeniden giriş yapın.',
};
