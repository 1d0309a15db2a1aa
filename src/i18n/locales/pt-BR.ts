// Português (Brasil). Tratamento por «você». Também servido a pt-PT (ver ../match.ts). Glossário: ../README.md.
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'Entrar com itch.io',
  cancel: 'Cancelar',
  continue: 'Continuar com itch.io',
  dismiss: 'Cancelar',
  idle: 'Nenhum login do itch.io em andamento.',
  pending: 'Entrando com itch.io…',
  success: 'Você entrou com itch.io.',
  retry: 'Tentar novamente',
  close: 'Fechar',
  store: 'Obter no itch.io',
  code: 'Login do itch.io: confirme na janela dele só se ela mostrar o código {code}.',
  access_denied: 'Você recusou o login no itch.io.',
  state_missing: 'Este login não foi iniciado neste site, então não foi concluído.',
  state_mismatch: 'Este login não foi iniciado aqui, ou já foi usado.',
  state_expired: 'O login levou mais de 10 minutos.',
  invalid_response: 'O itch.io enviou uma resposta que não pôde ser lida.',
  backend_rejected: 'O servidor deste site recusou o login.',
  network_error: 'Não foi possível acessar o servidor deste site.',
  popup_blocked: 'A janela do itch.io foi bloqueada pelo navegador.',
  popup_closed: 'A janela do itch.io foi fechada antes de o login terminar.',
  config_invalid: 'O login com itch.io não está configurado corretamente neste site.',
  timeout: 'O itch.io não respondeu a tempo: entre novamente.',
  not_owner: 'Você precisa ter este jogo no itch.io para continuar.',
  popup_unverified:
    'Não foi possível vincular a janela do itch.io à página que a abriu, então o login foi interrompido para a sua segurança.',
  aborted: 'O login foi cancelado.',
  service_unavailable: 'O servidor deste site ou o itch.io não está respondendo agora. Tente novamente em um minuto.',
  cookies_blocked:
    'Seu navegador está bloqueando os cookies de que este login precisa. Permita cookies para este site nas configurações de privacidade do navegador (cookies e dados de sites) e tente novamente.',
  next_not_owner: 'Obtenha o jogo no itch.io, ou saia da conta lá para usar a conta que o possui.',
  next_backend_rejected: 'Para usar outra conta do itch.io, saia da sua conta no itch.io primeiro.',
  next_network_error: 'Tente novamente em alguns minutos.',
  back: 'Voltar ao site',
  state_used:
    'Este link de login só funciona uma vez, na aba em que o login começou, então aqui ele não fez nada. Se você concluiu o login lá, já está conectado.',
};
