"""The instructions a compiler runs on one translation unit, counted by valgrind's callgrind
(shared by instructions.py and folding.py)."""
import glob, os, re, subprocess


def compiler_instructions(cxx, include, source, work, *flags):
    """The largest count among the processes the driver starts: the compiler proper."""
    out = os.path.join(work, 'callgrind.%p')
    subprocess.run(['valgrind', '--tool=callgrind', '--trace-children=yes', '--callgrind-out-file=' + out,
                    cxx, '-std=c++20', '-O2', '-DNDEBUG', '-I' + include, '-I/usr/include/eigen3', *flags,
                    '-c', str(source), '-o', os.path.join(work, 't.o')],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    counts = []
    for f in glob.glob(os.path.join(work, 'callgrind.*')):
        with open(f) as lines:
            counts += [int(m.group(1)) for m in (re.match(r'(?:summary|totals): (\d+)', line) for line in lines) if m]
        os.remove(f)
    return max(counts)
