// Polski. Forma bezpośrednia (2. os. l.poj.: „Zaloguj się”), jak w większości interfejsów gier. Słowniczek: ../README.md.
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'Zaloguj się przez itch.io',
  cancel: 'Anuluj',
  continue: 'Kontynuuj przez itch.io',
  dismiss: 'Anuluj',
  idle: 'Brak trwającego logowania przez itch.io.',
  pending: 'Logowanie przez itch.io…',
  success: 'Zalogowano przez itch.io.',
  retry: 'Spróbuj ponownie',
  close: 'Zamknij',
  store: 'Zdobądź w itch.io',
  code: 'Logowanie przez itch.io: potwierdź w jego oknie tylko wtedy, gdy widzisz tam kod {code}.',
  access_denied: 'Odrzucono logowanie w itch.io.',
  state_missing: 'To logowanie nie zostało rozpoczęte w tej witrynie, więc nie zostało dokończone.',
  state_mismatch: 'To logowanie nie zostało rozpoczęte tutaj albo zostało już użyte.',
  state_expired: 'Logowanie trwało dłużej niż 10 minut.',
  invalid_response: 'itch.io odesłało odpowiedź, której nie udało się odczytać.',
  backend_rejected: 'Serwer tej witryny odrzucił logowanie.',
  network_error: 'Nie udało się połączyć z serwerem tej witryny.',
  popup_blocked: 'Przeglądarka zablokowała okno itch.io.',
  popup_closed: 'Okno itch.io zostało zamknięte przed końcem logowania.',
  config_invalid: 'Logowanie przez itch.io nie jest poprawnie skonfigurowane w tej witrynie.',
  timeout: 'itch.io nie odpowiedziało na czas: zaloguj się ponownie.',
  not_owner: 'Aby kontynuować, musisz mieć tę grę w itch.io.',
  popup_unverified:
    'Nie udało się powiązać okna itch.io ze stroną, która je otworzyła, więc dla twojego bezpieczeństwa logowanie zostało przerwane.',
  aborted: 'Logowanie zostało anulowane.',
  service_unavailable: 'Serwer tej witryny lub itch.io nie odpowiada w tej chwili. Spróbuj ponownie za minutę.',
  cookies_blocked:
    'Twoja przeglądarka blokuje pliki cookie potrzebne do logowania. Zezwól na pliki cookie dla tej witryny w ustawieniach prywatności przeglądarki (pliki cookie i dane witryn), a potem spróbuj ponownie.',
  next_not_owner: 'Zdobądź ją w itch.io albo wyloguj się tam, aby użyć konta, które ją posiada.',
  next_backend_rejected: 'Aby użyć innego konta itch.io, najpierw wyloguj się z itch.io.',
  next_network_error: 'Spróbuj ponownie za kilka minut.',
  back: 'Wróć do witryny',
  state_used:
    'Ten link logowania działa tylko raz, w karcie, w której rozpoczęto logowanie, więc tutaj niczego nie zmienił. Jeśli tam logowanie się udało, jesteś już zalogowany.',
};
