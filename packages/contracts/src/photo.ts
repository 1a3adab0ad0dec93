import { z } from 'zod';

// ---------------------------------------------------------------------------------------------------------------
// Phone capture (issue #26): why a photo of a card was refused, in the teacher's words.

export const PHOTO_REFUSAL_CODES = [
  'noAnchors',
  'tooSmall',
  'tooTilted',
  'blurred',
  'tooDark',
  'glare',
  'unreadable',
] as const;
export const PhotoRefusalCodeSchema = z.enum(PHOTO_REFUSAL_CODES);
export type PhotoRefusalCode = z.infer<typeof PhotoRefusalCodeSchema>;

/** What the phone shows when it asks for a retake. */
export const PHOTO_REFUSAL_MESSAGES: Readonly<Record<PhotoRefusalCode, string>> = {
  noAnchors: '没有找到答题卡四角的黑色定位方块，请把整张答题卡放进取景框内再拍',
  tooSmall: '答题卡在画面中太小，请把手机靠近一些，让答题卡占满取景框',
  tooTilted: '拍摄角度太斜，请把手机举在答题卡正上方、与纸面平行再拍',
  blurred: '照片模糊（手抖或没有对焦），请拿稳手机，等对焦清晰后再拍',
  tooDark: '照片太暗，请到光线充足的地方或打开灯再拍',
  glare: '答题卡上有反光，请调整角度或避开灯光直射再拍',
  unreadable: '无法读取这张照片，请重新拍摄',
};

/** The host's answer to a phone photo: stored as a flat page, or refused with the reason to retake it. */
export const PhotoCheckSchema = z.discriminatedUnion('accepted', [
  z.object({ accepted: z.literal(true), pageId: z.string() }),
  z.object({
    accepted: z.literal(false),
    code: PhotoRefusalCodeSchema,
    /** For the teacher, in Chinese. */
    message: z.string(),
  }),
]);
export type PhotoCheck = z.infer<typeof PhotoCheckSchema>;
