// The host's Chinese text of 纸上批阅 (先阅后扫, ADR 0065): the change-log reasons of scores taken from score boxes and
// the scan exception a doubtful box raises. Part of the host catalogue (src/i18n/).

export const PAPER_MARKING_TEXT = {
  /** Change-log reason: a score read from the card's score box. */
  reasonRead: '纸上批阅：读取打分框得分',
  /** Change-log reason: a person typed the score of a doubtful box. */
  reasonEntered: '纸上批阅：人工核对打分框后录入得分',
  /** Change-log reason: a box read before no longer gives a score (read again blank or doubtful). */
  reasonCleared: '纸上批阅：打分框重新识别，得分待核对',
  /** Change-log reason: the page the box was read from was ignored or rescanned. */
  reasonSetAside: '纸上批阅：该页已忽略或重新扫描，打分框得分待核对',
  /** Change-log reason: a person sent the question back to on-screen marking. */
  reasonOnScreen: '纸上批阅：改为网上阅卷',
  /** The scan exception of a doubtful box: the question's number and why. */
  doubtfulBox: (number: string, why: string) => `第${number}题打分框：${why}`,
} as const;
