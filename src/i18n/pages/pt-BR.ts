// Português (Brasil). Tratamento por «você». Também servido a pt-PT (ver ../match.ts). Glossário: ../README.md.
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: 'Entrar com itch.io',
  checking: 'Verificando o jogo que abriu esta janela…',
  leaving: 'Abrindo o itch.io…',
  confirm: 'Esta janela não consegue ver o jogo que a abriu.',
  confirm_code:
    '{site} ({origin}) pede que você confirme este código. Confirme só se o jogo de {site} estiver mostrando este mesmo código agora. Se outro site, outro jogo, uma mensagem ou uma pessoa passou este código para você, escolha "Não mostra": confirmar faria o login deles em {site} com a sua conta.',
  code_label: 'código {code}',
  yes: 'O jogo mostra {code}',
  no: 'Não mostra',
  close: 'Fechar',
  popup_unverified:
    'Não foi possível vincular esta janela ao jogo que a abriu, então o login para aqui para a sua segurança. Feche esta janela e entre novamente pelo jogo (permita pop-ups se o navegador pedir).',
  state_mismatch: 'A página que abriu esta janela não tem permissão para entrar neste site. Feche esta janela.',
  refused: 'Não foi possível iniciar este login. Feche esta janela e tente novamente.',
  network: 'Não foi possível acessar o site. Feche esta janela e tente novamente.',
  silent: 'A página que abriu esta janela não respondeu. Feche esta janela e entre novamente pelo jogo.',
  unavailable: 'O site não consegue fazer o seu login agora. Feche esta janela e tente novamente daqui a pouco.',
  cookies_blocked:
    'Seu navegador está bloqueando os cookies de que este login precisa. Permita cookies para este site nas configurações de privacidade do navegador (cookies e dados de sites), feche esta janela e entre novamente.',
};
