// Attack (the reference is reachable): call the instructor's reduce kernels without naming their
// namespace in C++: each is declared under a name of our own, bound by an asm label to the
// reference's mangled symbol (_ZN17cugrade_reference8reduce_1EPKiPxi, ...). A check that reads
// the names a submission writes in its source never sees cugrade_reference. Must fail: the
// student's runner holds no reference, and the link refuses any undefined symbol it does not
// provide (no marks from the reference's code).
#include "interface.cuh"

void ref1(const int* in, long long* out, int n) __asm__("_ZN17cugrade_reference8reduce_1EPKiPxi");
void ref2(const int* in, long long* out, int n) __asm__("_ZN17cugrade_reference8reduce_2EPKiPxi");
void ref3(const int* in, long long* out, int n) __asm__("_ZN17cugrade_reference8reduce_3EPKiPxi");
void ref4(const int* in, long long* out, int n) __asm__("_ZN17cugrade_reference8reduce_4EPKiPxi");
void ref5(const int* in, long long* out, int n) __asm__("_ZN17cugrade_reference8reduce_5EPKiPxi");
void ref6(const int* in, long long* out, int n) __asm__("_ZN17cugrade_reference8reduce_6EPKiPxi");
void ref7(const int* in, long long* out, int n) __asm__("_ZN17cugrade_reference8reduce_7EPKiPxi");

void reduce_1(const int* in, long long* out, int n) { ref1(in, out, n); }
void reduce_2(const int* in, long long* out, int n) { ref2(in, out, n); }
void reduce_3(const int* in, long long* out, int n) { ref3(in, out, n); }
void reduce_4(const int* in, long long* out, int n) { ref4(in, out, n); }
void reduce_5(const int* in, long long* out, int n) { ref5(in, out, n); }
void reduce_6(const int* in, long long* out, int n) { ref6(in, out, n); }
void reduce_7(const int* in, long long* out, int n) { ref7(in, out, n); }
