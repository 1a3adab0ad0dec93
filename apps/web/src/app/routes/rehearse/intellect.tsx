import { SmartComposeScreen } from '../../../features/smart-compose/components/smart-compose-screen';

/** 智能组卷: chapters or knowledge points, types × counts × scores and a target difficulty → a paper. */
export function Component() {
  return <SmartComposeScreen />;
}
