export * from './define.js';
export * from './auth.js';
export * from './system.js';
export * from './basket.js';
export * from './catalog.js';

import { captchaCall, registerCall, signoutCall, tokenCall } from './auth.js';
import {
  addBasketCall,
  clearBasketCall,
  delQuestionTypeCall,
  getQuestionBasketCall,
  removeBasketCall,
} from './basket.js';
import {
  booknodeTreeCall,
  knowledgeTreeCall,
  questionPageCall,
  questionTypeListCall,
  stageListCall,
  textbookListCall,
} from './catalog.js';
import { classListCall, updateClassDefaultCall, userInfoCall } from './system.js';

/** Every host call, by name: the single source the server, the client and the contract suite read. */
export const calls = {
  token: tokenCall,
  captcha: captchaCall,
  signout: signoutCall,
  register: registerCall,
  userInfo: userInfoCall,
  classList: classListCall,
  updateClassDefault: updateClassDefaultCall,
  getQuestionBasket: getQuestionBasketCall,
  addBasket: addBasketCall,
  removeBasket: removeBasketCall,
  clearBasket: clearBasketCall,
  delQuestionType: delQuestionTypeCall,
  stageList: stageListCall,
  textbookList: textbookListCall,
  booknodeTree: booknodeTreeCall,
  knowledgeTree: knowledgeTreeCall,
  questionTypeList: questionTypeListCall,
  questionPage: questionPageCall,
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
