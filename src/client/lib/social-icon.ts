import { AtSign, BriefcaseBusiness, Camera, CirclePlay, FolderGit2, Gamepad2, Link2, MessageCircle, Send, type LucideIcon } from 'lucide-react';

/** lucide ships no brand marks, so each network gets the closest generic glyph. */
const ICONS: [RegExp, LucideIcon][] = [
  [/whatsapp/i, MessageCircle],
  [/telegram/i, Send],
  [/instagram/i, Camera],
  [/github/i, FolderGit2],
  [/linkedin/i, BriefcaseBusiness],
  [/discord/i, Gamepad2],
  [/youtube/i, CirclePlay],
  [/twitter|\bx\b/i, AtSign],
];

export function socialIcon(name: string): LucideIcon {
  return ICONS.find(([re]) => re.test(name))?.[1] ?? Link2;
}
