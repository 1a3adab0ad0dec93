// The Chinese text of a school's student lists (ADR 0052): the Excel template and export, the checks of an import
// and its audit details. Part of the host catalogue (src/i18n/); the column headers and the messages the web shares
// are in @zhzy/contracts (STUDENT_COLUMNS, SCHOOL_MESSAGES).

export const STUDENTS_TEXT = {
  /** The student sheet of the template, the export and the import. */
  sheet: '学生名单',
  notesSheet: '填写说明',
  /** The notes sheet of the template, one line a row. */
  notes: [
    '学生名单填写说明',
    '1. 请在“学生名单”工作表中从第2行开始填写，每行一名学生，不要修改第1行的表头。',
    '2. 姓名、学号必填；学号在全校唯一，只能包含字母、数字和短横线，最多32位。',
    '3. 班级填写本学年已有的班级名称，例如：七年级(1)班；导入时也可以选择自动创建不存在的班级。',
    '4. 性别填写“男”或“女”，也可以不填。',
    '5. 任意一行有误时不会导入任何学生，请按提示修改后重新导入。',
  ],
  exportFile: (year: string, className: string) => `${year}-${className}-学生名单.xlsx`,
  /** Audit detail of a move between classes. */
  moved: (count: number, className: string) => `${count}名学生调入${className}`,
  /** Audit detail of an import. */
  imported: (year: string, count: number, created: string[]) =>
    `${year}导入${count}名学生${created.length > 0 ? `，新建班级${created.join('、')}` : ''}`,
  listSeparator: '、',
  /** An import error of one row. */
  rowError: (row: number, message: string) => `第${row}行：${message}`,
  nameTooLong: '学生姓名最多20个字',
  badStudentNo: (no: string) => `学号 ${no} 格式不正确（只能包含字母、数字和短横线，最多32位）`,
  repeatedStudentNo: (no: string, firstRow: number | undefined) => `学号 ${no} 与第${firstRow}行重复`,
  badGender: (gender: string) => `性别“${gender}”不正确，只能是男或女`,
  classRequired: '请填写班级',
  classNameTooLong: '班级名称最多30个字',
  classNotInYear: (className: string, year: string) => `班级 ${className} 在${year}中不存在`,
  numberTakenMeanwhile: '导入失败：有学号刚被占用，未导入任何学生，请重新导入',
} as const;
