// 简体中文。称呼用「你」（与多数游戏界面一致）；中文与 itch.io、代码之间留一个空格。术语表：../README.md。
import type { DesktopMessages } from '../catalogue.js';

export const desktop: DesktopMessages = {
  title: 'itch.io 登录',
  finishing: '正在完成 itch.io 登录…',
  nothing_title: '这里没有需要完成的登录',
  nothing: '此地址不包含来自 itch.io 的响应。你可以关闭此标签页。',
  stopped_title: '应用已停止等待',
  stopped: '它不再等待此登录：请从应用中重新登录。你可以关闭此标签页。',
  done_title: '你已登录',
  done: '你可以关闭此标签页并返回应用。',
  cancelled_title: '登录已取消',
  failed_title: '登录未完成',
  told: '已通知应用。你可以关闭此标签页。',
  close: '你可以关闭此标签页。',
};
