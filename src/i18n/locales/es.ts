// Español (neutro). Tuteo («tú»), como la mayoría de las interfaces de juegos. Glosario: ../README.md.
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'Iniciar sesión con itch.io',
  cancel: 'Cancelar',
  continue: 'Continuar con itch.io',
  dismiss: 'Cancelar',
  idle: 'No hay ningún inicio de sesión de itch.io en curso.',
  pending: 'Iniciando sesión con itch.io…',
  success: 'Has iniciado sesión con itch.io.',
  retry: 'Reintentar',
  close: 'Cerrar',
  store: 'Consíguelo en itch.io',
  code: 'Inicio de sesión de itch.io: confirma en su ventana solo si muestra el código {code}.',
  access_denied: 'Rechazaste el inicio de sesión en itch.io.',
  state_missing: 'Este inicio de sesión no se empezó en este sitio, así que no se completó.',
  state_mismatch: 'Este inicio de sesión no se empezó aquí o ya se usó.',
  state_expired: 'El inicio de sesión tardó más de 10 minutos.',
  invalid_response: 'itch.io devolvió una respuesta que no se pudo leer.',
  backend_rejected: 'El servidor de este sitio rechazó el inicio de sesión.',
  network_error: 'No se pudo conectar con el servidor de este sitio.',
  popup_blocked: 'El navegador bloqueó la ventana de itch.io.',
  popup_closed: 'La ventana de itch.io se cerró antes de terminar el inicio de sesión.',
  config_invalid: 'El inicio de sesión con itch.io no está bien configurado en este sitio.',
  timeout: 'itch.io no respondió a tiempo: vuelve a iniciar sesión.',
  not_owner: 'Necesitas tener este juego en itch.io para continuar.',
  popup_unverified:
    'No se pudo vincular la ventana de itch.io con la página que la abrió, así que el inicio de sesión se detuvo por tu seguridad.',
  aborted: 'Se canceló el inicio de sesión.',
  service_unavailable: 'El servidor de este sitio o itch.io no responde en este momento. Vuelve a intentarlo en un minuto.',
  cookies_blocked:
    'Tu navegador está bloqueando las cookies que necesita este inicio de sesión. Permite las cookies de este sitio en la configuración de privacidad de tu navegador (cookies y datos de sitios) y vuelve a intentarlo.',
  next_not_owner: 'Consíguelo en itch.io, o cierra sesión allí para usar la cuenta que lo tiene.',
  next_backend_rejected: 'Para usar otra cuenta de itch.io, primero cierra sesión en itch.io.',
  next_network_error: 'Vuelve a intentarlo en unos minutos.',
  back: 'Volver al sitio',
  state_used:
    'Este enlace de inicio de sesión solo sirve una vez, en la pestaña donde empezó el inicio de sesión, así que aquí no ha hecho nada. Si terminaste de iniciar sesión allí, ya tienes la sesión iniciada.',
};
