// 한국어. 합니다체/해요체 존댓말(안내 문장), 버튼은 명사형(「다시 시도」). 용어집: ../README.md.
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'itch.io 로그인',
  finishing: 'itch.io 로그인을 마무리하는 중…',
  nothing_title: '여기에서 마무리할 작업이 없습니다',
  nothing: '이 주소에는 itch.io의 응답이 없습니다. 이 탭을 닫아도 됩니다.',
  stopped_title: '애플리케이션이 더 이상 기다리지 않습니다',
  stopped: '이 로그인을 더 이상 기다리지 않습니다. 애플리케이션에서 로그인을 다시 시작하세요. 이 탭을 닫아도 됩니다.',
  done_title: '로그인했습니다',
  done: '이 탭을 닫고 애플리케이션으로 돌아가세요.',
  cancelled_title: '로그인이 취소되었습니다',
  failed_title: '로그인이 완료되지 않았습니다',
  told: '애플리케이션에 알렸습니다. 이 탭을 닫아도 됩니다.',
  close: '이 탭을 닫아도 됩니다.',
};
