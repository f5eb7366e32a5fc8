const frames: string[] = ['12:00', '12:10'];
document.getElementById('frames')!.replaceChildren(...frames.map((f) => Object.assign(document.createElement('li'), { textContent: f })));
