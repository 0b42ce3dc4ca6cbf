import * as React from 'react';
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@contract/constants';

/**
 * The global toast store (spec: one at a time, a newer replaces the older, a dismissed toast is
 * removed after TOAST_REMOVE_DELAY_MS). Call `toast({ title, description, variant })` from anywhere.
 */
export interface ToastData {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  action?: React.ReactNode;
  variant?: 'default' | 'destructive' | 'success';
  duration?: number;
  open: boolean;
}

type Listener = (toasts: ToastData[]) => void;
let state: ToastData[] = [];
const listeners = new Set<Listener>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit(next: ToastData[]) {
  state = next;
  listeners.forEach((l) => l(state));
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return;
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id);
      emit(state.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function dismissToast(id?: string) {
  emit(
    state.map((t) => {
      if (id === undefined || t.id === id) {
        scheduleRemoval(t.id);
        return { ...t, open: false };
      }
      return t;
    }),
  );
}

export function toast(props: Omit<ToastData, 'id' | 'open'>) {
  const id = String(++counter);
  emit([{ ...props, id, open: true }, ...state].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/**
 * The toasts, re-rendered on every change. An external store read with useSyncExternalStore: a
 * toast raised between the outlet's first render and its subscription (the outlet is lazy, and a
 * click replayed at hydration can come first) is shown, not lost.
 */
export function useToasts(): ToastData[] {
  return React.useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}

function subscribe(onChange: () => void) {
  const listener: Listener = () => onChange();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
const snapshot = () => state;
const NONE: ToastData[] = [];
const serverSnapshot = () => NONE;
