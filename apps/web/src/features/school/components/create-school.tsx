import { useState, type FormEvent } from 'react';
import { AREAS, CreateSchoolSchema, type SchoolDetail } from '@zhzy/contracts';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/field';
import { Listbox } from '../../../components/ui/listbox';
import { zhCNSchool as ts } from '../../../i18n/school';
import { toast } from '../../../lib/toast';
import { createSchool, refreshUser } from '../api/school';

/** The form that creates a school; its author becomes the creator and an administrator. */
export function CreateSchoolForm({
  onCreated,
  onCancel,
}: {
  onCreated: (school: SchoolDetail) => void;
  onCancel?: () => void;
}) {
  const [name, setName] = useState('');
  const [region, setRegion] = useState<string>('');
  const [address, setAddress] = useState('');
  const [phone, setPhone] = useState('');
  const [intro, setIntro] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = { name, region: region || null, address, phone, intro };
    const parsed = CreateSchoolSchema.safeParse(input);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const school = await createSchool(input as never);
      await refreshUser();
      toast.success(ts.create.done(school.name));
      onCreated(school);
    } catch {
      // The client showed the host's message.
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-4" aria-label={ts.create.title}>
      <TextField
        label={ts.create.name}
        placeholder={ts.create.namePlaceholder}
        value={name}
        maxLength={50}
        error={errors.name}
        onChange={(e) => setName(e.target.value)}
      />
      <Listbox
        label={ts.create.region}
        value={region}
        placeholder={ts.create.regionPlaceholder}
        options={AREAS.map((a) => ({ value: a, label: a }))}
        onChange={setRegion}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={ts.create.address}
          value={address}
          maxLength={100}
          error={errors.address}
          onChange={(e) => setAddress(e.target.value)}
        />
        <TextField
          label={ts.create.phone}
          value={phone}
          maxLength={30}
          error={errors.phone}
          onChange={(e) => setPhone(e.target.value)}
        />
      </div>
      <label className="block text-sm font-medium text-slate-700">
        {ts.create.intro}
        <textarea
          value={intro}
          maxLength={500}
          rows={3}
          onChange={(e) => setIntro(e.target.value)}
          className="mt-1.5 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm font-normal focus:border-blue-500 focus:ring-2 focus:ring-blue-500/20 focus:outline-none"
        />
      </label>
      <div className="flex justify-end gap-2 pt-2">
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {ts.cancel}
          </Button>
        )}
        <Button type="submit" loading={busy}>
          {ts.create.submit}
        </Button>
      </div>
    </form>
  );
}
