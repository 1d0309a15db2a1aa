// 한국어. 합니다체/해요체 존댓말(안내 문장), 버튼은 명사형(「다시 시도」). 용어집: ../README.md.
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: 'itch.io로 로그인',
  checking: '이 창을 연 게임을 확인하는 중…',
  leaving: 'itch.io를 여는 중…',
  confirm: '이 창에서는 이 창을 연 게임을 볼 수 없습니다.',
  confirm_code:
    '{site}({origin})에서 이 코드를 승인해 달라고 요청합니다. {site}의 게임에 지금 같은 코드가 표시될 때만 승인하세요. 다른 사이트, 게임, 메시지 또는 사람이 이 코드를 알려 주었다면 "표시되지 않음"을 선택하세요. 승인하면 그 상대가 내 계정으로 {site}에 로그인하게 됩니다.',
  code_label: '코드 {code}',
  yes: '게임에 {code} 표시됨',
  no: '표시되지 않음',
  close: '닫기',
  popup_unverified:
    '이 창을 연 게임과 연결할 수 없어 안전을 위해 로그인을 여기서 중단합니다. 이 창을 닫고 게임에서 다시 로그인하세요(브라우저가 물으면 팝업을 허용하세요).',
  state_mismatch: '이 창을 연 페이지는 이 사이트에 로그인할 수 없습니다. 이 창을 닫으세요.',
  refused: '로그인을 시작할 수 없습니다. 이 창을 닫고 다시 시도하세요.',
  network: '사이트에 연결할 수 없습니다. 이 창을 닫고 다시 시도하세요.',
  silent: '이 창을 연 페이지가 응답하지 않았습니다. 이 창을 닫고 게임에서 다시 로그인하세요.',
  unavailable: '지금은 사이트에서 로그인할 수 없습니다. 이 창을 닫고 잠시 후 다시 시도하세요.',
};
