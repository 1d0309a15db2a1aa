// Español (neutro). Tuteo («tú»), como la mayoría de las interfaces de juegos. Glosario: ../README.md.
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'Inicio de sesión de itch.io',
  finishing: 'Terminando el inicio de sesión de itch.io…',
  nothing_title: 'Aquí no hay nada que terminar',
  nothing: 'Esta dirección no contiene ninguna respuesta de itch.io. Puedes cerrar esta pestaña.',
  stopped_title: 'La aplicación dejó de esperar',
  stopped: 'Ya no espera este inicio de sesión: vuelve a iniciar sesión desde la aplicación. Puedes cerrar esta pestaña.',
  done_title: 'Has iniciado sesión',
  done: 'Puedes cerrar esta pestaña y volver a la aplicación.',
  cancelled_title: 'Inicio de sesión cancelado',
  failed_title: 'El inicio de sesión no se completó',
  told: 'Se avisó a la aplicación. Puedes cerrar esta pestaña.',
  close: 'Puedes cerrar esta pestaña.',
};
