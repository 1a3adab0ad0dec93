import { TemplatesScreen } from '../../../features/templates/components/templates-screen';

/** 模板试卷: preview a template, copy it into 我的试卷 and edit it. */
export function Component() {
  return <TemplatesScreen />;
}
