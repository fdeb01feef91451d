int cpu_build_placeholder;
