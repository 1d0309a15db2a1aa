// Türkçe. Hitap: «siz» (cümlelerde); düğmelerde kısa emir kipi («Tekrar dene»), platformlardaki gibi. Sözlük: ../README.md.
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'itch.io girişi',
  finishing: 'itch.io girişi tamamlanıyor…',
  nothing_title: 'Burada tamamlanacak bir şey yok',
  nothing: 'Bu adres itch.io’dan bir yanıt içermiyor. Bu sekmeyi kapatabilirsiniz.',
  stopped_title: 'Uygulama artık beklemiyor',
  stopped: 'Bu girişi artık beklemiyor: Girişi uygulamadan yeniden başlatın. Bu sekmeyi kapatabilirsiniz.',
  done_title: 'Giriş yaptınız',
  done: 'Bu sekmeyi kapatıp uygulamaya dönebilirsiniz.',
  cancelled_title: 'Giriş iptal edildi',
  failed_title: 'Giriş tamamlanmadı',
  told: 'Uygulamaya bildirildi. Bu sekmeyi kapatabilirsiniz.',
  close: 'Bu sekmeyi kapatabilirsiniz.',
};
