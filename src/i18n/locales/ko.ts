// 한국어. 합니다체/해요체 존댓말(안내 문장), 버튼은 명사형(「다시 시도」). 용어집: ../README.md.
import type { WidgetMessages } from '../catalogue.js';

export const widget: WidgetMessages = {
  login: 'itch.io로 로그인',
  cancel: '취소',
  continue: 'itch.io로 계속하기',
  dismiss: '취소',
  idle: '진행 중인 itch.io 로그인이 없습니다.',
  pending: 'itch.io로 로그인하는 중…',
  success: 'itch.io로 로그인했습니다.',
  retry: '다시 시도',
  close: '닫기',
  store: 'itch.io에서 받기',
  code: 'itch.io 로그인: 해당 창에 코드 {code}이(가) 표시될 때만 승인하세요.',
  access_denied: 'itch.io에서 로그인을 거부했습니다.',
  state_missing: '이 로그인은 이 사이트에서 시작되지 않아 완료되지 않았습니다.',
  state_mismatch: '이 로그인은 여기에서 시작되지 않았거나 이미 사용되었습니다.',
  state_expired: '로그인에 10분 넘게 걸렸습니다.',
  invalid_response: 'itch.io가 읽을 수 없는 응답을 보냈습니다.',
  backend_rejected: '이 사이트의 서버가 로그인을 거부했습니다.',
  network_error: '이 사이트의 서버에 연결할 수 없습니다.',
  popup_blocked: '브라우저가 itch.io 창을 차단했습니다.',
  popup_closed: '로그인이 끝나기 전에 itch.io 창이 닫혔습니다.',
  config_invalid: '이 사이트에서 itch.io 로그인이 올바르게 설정되지 않았습니다.',
  timeout: 'itch.io가 제때 응답하지 않았습니다. 다시 로그인하세요.',
  not_owner: '계속하려면 itch.io에서 이 게임을 소유하고 있어야 합니다.',
  popup_unverified: 'itch.io 창을 연 페이지와 연결할 수 없어 안전을 위해 로그인을 중단했습니다.',
  aborted: '로그인이 취소되었습니다.',
  service_unavailable: '이 사이트의 서버 또는 itch.io가 지금 응답하지 않습니다. 1분 후에 다시 시도하세요.',
  cookies_blocked:
    '브라우저가 이 로그인에 필요한 쿠키를 차단하고 있습니다. 브라우저의 개인정보 설정(쿠키 및 사이트 데이터)에서 이 사이트의 쿠키를 허용한 후 다시 시도하세요.',
  next_not_owner: 'itch.io에서 게임을 받거나, itch.io에서 로그아웃한 뒤 게임을 소유한 계정을 사용하세요.',
  next_backend_rejected: '다른 itch.io 계정을 사용하려면 먼저 itch.io에서 로그아웃하세요.',
  next_network_error: '몇 분 후에 다시 시도하세요.',
  back: '사이트로 돌아가기',
  state_used:
    '이 로그인 링크는 로그인을 시작한 탭에서 한 번만 쓸 수 있어 여기서는 아무것도 바뀌지 않았습니다. 그 탭에서 로그인을 마쳤다면 이미 로그인된 상태입니다.',
};
