// Türkçe. Hitap: «siz» (cümlelerde); düğmelerde kısa emir kipi («Tekrar dene»), platformlardaki gibi. Sözlük: ../README.md.
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'itch.io ile giriş yap',
  cancel: 'İptal',
  continue: 'itch.io ile devam et',
  dismiss: 'İptal',
  idle: 'Devam eden bir itch.io girişi yok.',
  pending: 'itch.io ile giriş yapılıyor…',
  success: 'itch.io ile giriş yaptınız.',
  retry: 'Tekrar dene',
  close: 'Kapat',
  store: 'itch.io’dan edinin',
  code: 'itch.io girişi: Yalnızca penceresinde {code} kodu görünüyorsa onaylayın.',
  access_denied: 'itch.io’da girişi reddettiniz.',
  state_missing: 'Bu giriş bu sitede başlatılmadığı için tamamlanmadı.',
  state_mismatch: 'Bu giriş burada başlatılmadı ya da daha önce kullanıldı.',
  state_expired: 'Giriş 10 dakikadan uzun sürdü.',
  invalid_response: 'itch.io okunamayan bir yanıt gönderdi.',
  backend_rejected: 'Bu sitenin sunucusu girişi reddetti.',
  network_error: 'Bu sitenin sunucusuna ulaşılamadı.',
  popup_blocked: 'itch.io penceresi tarayıcı tarafından engellendi.',
  popup_closed: 'itch.io penceresi giriş tamamlanmadan kapatıldı.',
  config_invalid: 'itch.io ile giriş bu sitede doğru ayarlanmamış.',
  timeout: 'itch.io zamanında yanıt vermedi: Lütfen tekrar giriş yapın.',
  not_owner: 'Devam etmek için bu oyuna itch.io’da sahip olmanız gerekiyor.',
  popup_unverified: 'itch.io penceresi onu açan sayfayla ilişkilendirilemedi, bu yüzden güvenliğiniz için giriş durduruldu.',
  aborted: 'Giriş iptal edildi.',
  service_unavailable: 'Bu sitenin sunucusu veya itch.io şu anda yanıt vermiyor. Bir dakika sonra tekrar deneyin.',
  cookies_blocked:
    'Tarayıcınız bu girişin ihtiyaç duyduğu çerezleri engelliyor. Tarayıcınızın gizlilik ayarlarında (çerezler ve site verileri) bu site için çerezlere izin verin, ardından tekrar deneyin.',
  next_not_owner: 'Oyunu itch.io’dan edinin ya da oyuna sahip olan hesabı kullanmak için orada oturumu kapatın.',
  next_backend_rejected: 'Başka bir itch.io hesabı kullanmak için önce itch.io’da oturumu kapatın.',
  next_network_error: 'Birkaç dakika sonra tekrar deneyin.',
  back: 'Siteye dön',
  state_used:
    'Bu giriş bağlantısı yalnızca bir kez, girişin başladığı sekmede çalışır; bu yüzden burada hiçbir şey yapmadı. Girişi orada tamamladıysanız zaten giriş yapmış durumdasınız.',
};
