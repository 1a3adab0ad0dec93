import { BindingScreen } from '../../features/materials/components/binding-screen';

/** 资料装订: papers and school materials bound into one printable PDF booklet. */
export function Component() {
  return <BindingScreen />;
}
