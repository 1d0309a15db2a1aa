// Português (Brasil). Tratamento por «você». Também servido a pt-PT (ver ../match.ts). Glossário: ../README.md.
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'Login do itch.io',
  finishing: 'Concluindo o login do itch.io…',
  nothing_title: 'Nada a concluir aqui',
  nothing: 'Este endereço não traz nenhuma resposta do itch.io. Você pode fechar esta aba.',
  stopped_title: 'O aplicativo parou de esperar',
  stopped: 'Ele não espera mais por este login: inicie o login novamente pelo aplicativo. Você pode fechar esta aba.',
  done_title: 'Você entrou',
  done: 'Você pode fechar esta aba e voltar ao aplicativo.',
  cancelled_title: 'Login cancelado',
  failed_title: 'O login não foi concluído',
  told: 'O aplicativo foi avisado. Você pode fechar esta aba.',
  close: 'Você pode fechar esta aba.',
};
