/**
 * Text of the shared report pieces (charts, Excel export, print buttons), used by the analysis, data-centre and
 * large-screen features; kept apart from zh-CN.ts so it travels only in their lazy chunks.
 */
export const zhReportKit = {
  export: {
    button: '导出 Excel',
    working: '正在导出…',
    done: (name: string) => `已导出 ${name}`,
    failed: '下载失败',
    empty: '没有可导出的数据',
  },
  chart: {
    loading: '图表加载中…',
    failed: '图表加载失败，请刷新页面重试',
    noData: '暂无数据',
  },
  print: {
    button: '打印',
    pdf: '下载 PDF',
  },
} as const;
