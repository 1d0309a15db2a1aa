// 简体中文。称呼用「你」（与多数游戏界面一致）；中文与 itch.io、代码之间留一个空格。术语表：../README.md。
import type { PageMessages } from '../catalogue.js';

export const pages: PageMessages = {
  title: '使用 itch.io 登录',
  checking: '正在检查打开此窗口的游戏…',
  leaving: '正在打开 itch.io…',
  confirm: '此窗口无法看到打开它的游戏。',
  confirm_code:
    '{site}（{origin}）请你确认此代码。只有当 {site} 的游戏此刻显示的正是同一个代码时才确认。如果这个代码来自其他网站、游戏、消息或他人，请选择“没有显示”：一旦确认，对方就会用你的账号登录 {site}。',
  code_label: '代码 {code}',
  yes: '游戏显示 {code}',
  no: '没有显示',
  close: '关闭',
  popup_unverified:
    '无法将此窗口与打开它的游戏关联起来，为了你的安全，登录到此为止。请关闭此窗口，然后从游戏中重新登录（如果浏览器询问，请允许弹出窗口）。',
  state_mismatch: '打开此窗口的页面无权登录本网站。请关闭此窗口。',
  refused: '无法开始此登录。请关闭此窗口后重试。',
  network: '无法连接到网站。请关闭此窗口后重试。',
  silent: '打开此窗口的页面没有响应。请关闭此窗口，然后从游戏中重新登录。',
  unavailable: '网站暂时无法为你登录。请关闭此窗口，稍后再试。',
  cookies_blocked:
    '你的浏览器阻止了此次登录所需的 Cookie。请在浏览器的隐私设置（Cookie 和网站数据）中允许此网站的 Cookie，然后关闭此窗口并重新登录。',
};
