import type { CommunityIcon } from '@contract/settings';
import { AtSign, BriefcaseBusiness, Camera, CirclePlay, FolderGit2, Gamepad2, Link2, MessageCircle, Send, type LucideIcon } from 'lucide-react';

/** lucide ships no brand marks, so each network gets the closest generic glyph; the owner picks the icon per card. */
export const SOCIAL_ICONS: Record<CommunityIcon, { icon: LucideIcon; label: string }> = {
  whatsapp: { icon: MessageCircle, label: 'WhatsApp' },
  telegram: { icon: Send, label: 'Telegram' },
  instagram: { icon: Camera, label: 'Instagram' },
  github: { icon: FolderGit2, label: 'GitHub' },
  linkedin: { icon: BriefcaseBusiness, label: 'LinkedIn' },
  discord: { icon: Gamepad2, label: 'Discord' },
  youtube: { icon: CirclePlay, label: 'YouTube' },
  twitter: { icon: AtSign, label: 'Twitter / X' },
  generic: { icon: Link2, label: 'Other link' },
};

export function socialIcon(icon: CommunityIcon): LucideIcon {
  return (SOCIAL_ICONS[icon] ?? SOCIAL_ICONS.generic).icon;
}
